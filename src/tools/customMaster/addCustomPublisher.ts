import { CUSTOM_PUBLISHER, customRecordAddTool } from "./customRecordTools";

export const addCustomPublisher = customRecordAddTool(CUSTOM_PUBLISHER);
