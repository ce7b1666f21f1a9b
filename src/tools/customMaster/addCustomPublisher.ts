import { CUSTOM_PUBLISHER, customRecordAddTool } from "./shared";

export const addCustomPublisher = customRecordAddTool(CUSTOM_PUBLISHER);
