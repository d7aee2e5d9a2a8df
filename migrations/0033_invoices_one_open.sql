-- An open invoice of a due date the company no longer has (edited or extended since it was issued) could still be
-- paid and extend the company a second time: it becomes void (what the services now do on every due-date change),
-- which leaves at most one open invoice per company for the index below.
UPDATE `invoices` SET `status` = 'void', `updated_at` = CAST(unixepoch('subsec') * 1000 AS INTEGER)
 WHERE `status` = 'open' AND `due_date` IS NOT (SELECT c.`due_date` FROM `companies` c WHERE c.`id` = `invoices`.`company_id`);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_one_open` ON `invoices` (`company_id`) WHERE status = 'open';
