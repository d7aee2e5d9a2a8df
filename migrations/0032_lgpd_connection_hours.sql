ALTER TABLE `contacts` ADD `lgpd_consent` text;--> statement-breakpoint
ALTER TABLE `contacts` ADD `lgpd_consent_at` integer;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `enable_lgpd` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `lgpd_message` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `lgpd_link` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `lgpd_consent` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `schedules` text DEFAULT '[]' NOT NULL;