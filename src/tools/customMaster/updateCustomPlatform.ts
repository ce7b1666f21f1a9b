import { CUSTOM_PLATFORM, customRecordUpdateTool } from "./shared";

export const updateCustomPlatform = customRecordUpdateTool(CUSTOM_PLATFORM);
