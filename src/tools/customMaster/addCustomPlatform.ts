import { CUSTOM_PLATFORM, customRecordAddTool } from "./shared";

export const addCustomPlatform = customRecordAddTool(CUSTOM_PLATFORM);
