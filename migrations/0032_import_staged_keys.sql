-- Imports: each upload stages its file under its own key (imports/<jobId>/<uploadId>.ndjson), and
-- the upload that claims the job records it here, so two uploads to one job never overwrite each other.
ALTER TABLE `import_jobs` ADD `staged_key` text;
