import { CUSTOM_PLATFORM, customRecordUpdateTool } from "./customRecordTools";

export const updateCustomPlatform = customRecordUpdateTool(CUSTOM_PLATFORM);
