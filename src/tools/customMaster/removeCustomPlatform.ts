import { CUSTOM_PLATFORM, customRecordRemoveTool } from "./customRecordTools";

export const removeCustomPlatform = customRecordRemoveTool(CUSTOM_PLATFORM);
