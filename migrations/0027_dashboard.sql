CREATE TABLE `dashboard_stats` (
	`company_id` integer NOT NULL,
	`bucket` integer NOT NULL,
	`user_id` integer NOT NULL,
	`created` integer DEFAULT 0 NOT NULL,
	`waits` integer DEFAULT 0 NOT NULL,
	`wait_ms` integer DEFAULT 0 NOT NULL,
	`closes` integer DEFAULT 0 NOT NULL,
	`services` integer DEFAULT 0 NOT NULL,
	`service_ms` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`company_id`, `bucket`, `user_id`),
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `message_counts` (
	`company_id` integer NOT NULL,
	`bucket` integer NOT NULL,
	`from_me` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`company_id`, `bucket`, `from_me`),
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- dashboard_stats: what the dashboard sums, per company, quarter of an hour and user, from every ticket event as
-- it is recorded (see src/server/db/schema/dashboard.ts). A wait ends when a pending ticket becomes open and began
-- at the ticket's last entry into pending; a service ends when an open ticket is closed and began at its last
-- entry into open. Group and imported tickets are left out.
INSERT INTO dashboard_stats (company_id, bucket, user_id, created, waits, wait_ms, closes, services, service_ms)
SELECT company_id, bucket, user_id, sum(created), sum(start_wait IS NOT NULL),
       sum(coalesce(max(at - start_wait, 0), 0)), sum(closes), sum(start_service IS NOT NULL),
       sum(coalesce(max(at - start_service, 0), 0))
  FROM (SELECT e.company_id, CAST(e.created_at / 900000 AS INTEGER) AS bucket, e.created_at AS at,
               CASE WHEN e.to_status = 'closed' THEN coalesce(e.from_user_id, e.to_user_id, 0)
                    ELSE coalesce(e.to_user_id, 0) END AS user_id,
               e.type = 'created' AS created,
               CASE WHEN e.from_status = 'pending' AND e.to_status = 'open' THEN
                 (SELECT p.created_at FROM ticket_events p WHERE p.ticket_id = e.ticket_id AND p.id < e.id
                     AND p.to_status = 'pending' AND coalesce(p.from_status, '') <> 'pending'
                   ORDER BY p.id DESC LIMIT 1) END AS start_wait,
               e.to_status = 'closed' AND coalesce(e.from_status, '') <> 'closed' AS closes,
               CASE WHEN e.to_status = 'closed' AND e.from_status = 'open' THEN
                 (SELECT p.created_at FROM ticket_events p WHERE p.ticket_id = e.ticket_id AND p.id < e.id
                     AND p.to_status = 'open' AND coalesce(p.from_status, '') <> 'open'
                   ORDER BY p.id DESC LIMIT 1) END AS start_service
          FROM ticket_events e
         WHERE (e.type = 'created' OR (e.from_status = 'pending' AND e.to_status = 'open')
                OR (e.to_status = 'closed' AND coalesce(e.from_status, '') <> 'closed'))
           AND EXISTS (SELECT 1 FROM tickets t WHERE t.id = e.ticket_id AND t.is_group = 0 AND t.imported = 0))
 GROUP BY company_id, bucket, user_id;
--> statement-breakpoint
CREATE TRIGGER `dashboard_stats_event` AFTER INSERT ON `ticket_events`
WHEN (new.type = 'created' OR (new.from_status = 'pending' AND new.to_status = 'open')
      OR (new.to_status = 'closed' AND coalesce(new.from_status, '') <> 'closed'))
  AND EXISTS (SELECT 1 FROM tickets t WHERE t.id = new.ticket_id AND t.is_group = 0 AND t.imported = 0)
BEGIN
  INSERT INTO dashboard_stats (company_id, bucket, user_id, created, waits, wait_ms, closes, services, service_ms)
  SELECT new.company_id, CAST(new.created_at / 900000 AS INTEGER), user_id, created, start_wait IS NOT NULL,
         coalesce(max(new.created_at - start_wait, 0), 0), closes, start_service IS NOT NULL,
         coalesce(max(new.created_at - start_service, 0), 0)
    FROM (SELECT CASE WHEN new.to_status = 'closed' THEN coalesce(new.from_user_id, new.to_user_id, 0)
                      ELSE coalesce(new.to_user_id, 0) END AS user_id,
                 new.type = 'created' AS created,
                 CASE WHEN new.from_status = 'pending' AND new.to_status = 'open' THEN
                   (SELECT p.created_at FROM ticket_events p WHERE p.ticket_id = new.ticket_id AND p.id < new.id
                       AND p.to_status = 'pending' AND coalesce(p.from_status, '') <> 'pending'
                     ORDER BY p.id DESC LIMIT 1) END AS start_wait,
                 new.to_status = 'closed' AND coalesce(new.from_status, '') <> 'closed' AS closes,
                 CASE WHEN new.to_status = 'closed' AND new.from_status = 'open' THEN
                   (SELECT p.created_at FROM ticket_events p WHERE p.ticket_id = new.ticket_id AND p.id < new.id
                       AND p.to_status = 'open' AND coalesce(p.from_status, '') <> 'open'
                     ORDER BY p.id DESC LIMIT 1) END AS start_service)
   WHERE true
  ON CONFLICT (company_id, bucket, user_id) DO UPDATE SET
    created = created + excluded.created, waits = waits + excluded.waits, wait_ms = wait_ms + excluded.wait_ms,
    closes = closes + excluded.closes, services = services + excluded.services,
    service_ms = service_ms + excluded.service_ms;
END;
--> statement-breakpoint
-- message_counts: messages per company, quarter of an hour and direction (GET /messages-allMe sums a range).
INSERT INTO message_counts (company_id, bucket, from_me, count)
SELECT company_id, CAST(created_at / 900000 AS INTEGER), from_me, count(*) FROM messages GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE TRIGGER `message_counts_insert` AFTER INSERT ON `messages` BEGIN
  INSERT INTO message_counts (company_id, bucket, from_me, count)
  VALUES (new.company_id, CAST(new.created_at / 900000 AS INTEGER), new.from_me, 1)
  ON CONFLICT (company_id, bucket, from_me) DO UPDATE SET count = count + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `message_counts_delete` AFTER DELETE ON `messages` BEGIN
  UPDATE message_counts SET count = count - 1
   WHERE company_id = old.company_id AND bucket = CAST(old.created_at / 900000 AS INTEGER) AND from_me = old.from_me;
END;
--> statement-breakpoint
CREATE TRIGGER `message_counts_update` AFTER UPDATE OF `company_id`, `created_at`, `from_me` ON `messages`
WHEN old.company_id IS NOT new.company_id OR CAST(old.created_at / 900000 AS INTEGER) IS NOT CAST(new.created_at / 900000 AS INTEGER)
  OR old.from_me IS NOT new.from_me
BEGIN
  UPDATE message_counts SET count = count - 1
   WHERE company_id = old.company_id AND bucket = CAST(old.created_at / 900000 AS INTEGER) AND from_me = old.from_me;
  INSERT INTO message_counts (company_id, bucket, from_me, count)
  VALUES (new.company_id, CAST(new.created_at / 900000 AS INTEGER), new.from_me, 1)
  ON CONFLICT (company_id, bucket, from_me) DO UPDATE SET count = count + 1;
END;
