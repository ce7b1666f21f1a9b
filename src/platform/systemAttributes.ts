/** Labels every user has. Ids are stable English words; labels are what collectors write. */
export const SYSTEM_ATTRIBUTES = [
  { id: "box", label: "箱あり" },
  { id: "manual", label: "説明書あり" },
  { id: "sealed", label: "未開封" },
  { id: "used", label: "中古" },
  { id: "limited", label: "限定版" },
  { id: "download", label: "ダウンロード版" },
  { id: "loose", label: "ソフトのみ" },
  { id: "reprint", label: "廉価版" },
] as const;
