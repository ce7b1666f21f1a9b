import { CUSTOM_PLATFORM, customRecordRemoveTool } from "./shared";

export const removeCustomPlatform = customRecordRemoveTool(CUSTOM_PLATFORM);
