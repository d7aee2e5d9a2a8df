CREATE TABLE `dashboard_days` (
	`company_id` integer NOT NULL,
	`day` integer NOT NULL,
	`user_id` integer NOT NULL,
	`created` integer DEFAULT 0 NOT NULL,
	`waits` integer DEFAULT 0 NOT NULL,
	`wait_ms` integer DEFAULT 0 NOT NULL,
	`closes` integer DEFAULT 0 NOT NULL,
	`services` integer DEFAULT 0 NOT NULL,
	`service_ms` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`company_id`, `day`, `user_id`),
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- dashboard_days: dashboard_stats summed per whole UTC day (96 quarters of an hour), kept in step by triggers on
-- dashboard_stats itself (an upsert's update adds new − old), so the two can never disagree.
INSERT INTO dashboard_days (company_id, day, user_id, created, waits, wait_ms, closes, services, service_ms)
SELECT company_id, bucket / 96, user_id, sum(created), sum(waits), sum(wait_ms), sum(closes), sum(services),
       sum(service_ms)
  FROM dashboard_stats GROUP BY company_id, bucket / 96, user_id;
--> statement-breakpoint
CREATE TRIGGER `dashboard_days_insert` AFTER INSERT ON `dashboard_stats` BEGIN
  INSERT INTO dashboard_days (company_id, day, user_id, created, waits, wait_ms, closes, services, service_ms)
  VALUES (new.company_id, new.bucket / 96, new.user_id, new.created, new.waits, new.wait_ms, new.closes,
          new.services, new.service_ms)
  ON CONFLICT (company_id, day, user_id) DO UPDATE SET
    created = created + excluded.created, waits = waits + excluded.waits, wait_ms = wait_ms + excluded.wait_ms,
    closes = closes + excluded.closes, services = services + excluded.services,
    service_ms = service_ms + excluded.service_ms;
END;
--> statement-breakpoint
CREATE TRIGGER `dashboard_days_update` AFTER UPDATE ON `dashboard_stats` BEGIN
  UPDATE dashboard_days SET
    created = created - old.created, waits = waits - old.waits, wait_ms = wait_ms - old.wait_ms,
    closes = closes - old.closes, services = services - old.services, service_ms = service_ms - old.service_ms
   WHERE company_id = old.company_id AND day = old.bucket / 96 AND user_id = old.user_id;
  INSERT INTO dashboard_days (company_id, day, user_id, created, waits, wait_ms, closes, services, service_ms)
  VALUES (new.company_id, new.bucket / 96, new.user_id, new.created, new.waits, new.wait_ms, new.closes,
          new.services, new.service_ms)
  ON CONFLICT (company_id, day, user_id) DO UPDATE SET
    created = created + excluded.created, waits = waits + excluded.waits, wait_ms = wait_ms + excluded.wait_ms,
    closes = closes + excluded.closes, services = services + excluded.services,
    service_ms = service_ms + excluded.service_ms;
END;
--> statement-breakpoint
CREATE TRIGGER `dashboard_days_delete` AFTER DELETE ON `dashboard_stats` BEGIN
  UPDATE dashboard_days SET
    created = created - old.created, waits = waits - old.waits, wait_ms = wait_ms - old.wait_ms,
    closes = closes - old.closes, services = services - old.services, service_ms = service_ms - old.service_ms
   WHERE company_id = old.company_id AND day = old.bucket / 96 AND user_id = old.user_id;
END;
--> statement-breakpoint
-- For the dashboard's range reads (written here, not in the Drizzle schema, which knows only its own tables):
-- the ratings of a range with their attendant and score read from the index alone, and the contacts created in a
-- range (new leads) counted on an index range.
CREATE INDEX `user_ratings_dashboard` ON `user_ratings` (`company_id`, `created_at`, `user_id`, `rate`);
--> statement-breakpoint
CREATE INDEX `contacts_company_created` ON `contacts` (`company_id`, `created_at`);
