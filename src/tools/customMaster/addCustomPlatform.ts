import { CUSTOM_PLATFORM, customRecordAddTool } from "./customRecordTools";

export const addCustomPlatform = customRecordAddTool(CUSTOM_PLATFORM);
