-- Webhook deliveries are sent through the job queue (pg-boss, schema pgboss,
-- created by the server at start). A delivery row names the job of its next
-- attempt; pending rows without one are relayed into the queue
-- (lib/webhooks/dispatch.ts), so deliveries queued before this release are sent too.
ALTER TABLE "WebhookDelivery" ADD COLUMN "jobId" UUID;

-- The index of the previous release's claim stays one release (docs/deploy.md, "Upgrading").
CREATE INDEX "WebhookDelivery_status_jobId_idx" ON "WebhookDelivery"("status", "jobId");
