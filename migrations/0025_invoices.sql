CREATE TABLE `invoices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`detail` text NOT NULL,
	`value_cents` integer NOT NULL,
	`due_date` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`paid_at` integer,
	`paid_via` text,
	`txid` text NOT NULL,
	`plan_id` integer,
	`plan_name` text NOT NULL,
	`plan_value_cents` integer NOT NULL,
	`recurrence` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_company_due_date` ON `invoices` (`company_id`,`due_date`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_txid` ON `invoices` (`txid`);--> statement-breakpoint
CREATE INDEX `invoices_company_id` ON `invoices` (`company_id`,`id`);