-- A name may be claimed by several spaces; only the verified claim holds it.
-- Names verified before ownership was proved by DNS stay verified.
ALTER TABLE "SpaceDomain" DROP CONSTRAINT "SpaceDomain_pkey";

DROP INDEX "SpaceDomain_spaceId_idx";

ALTER TABLE "SpaceDomain" ADD COLUMN "verifiedHostname" TEXT;

UPDATE "SpaceDomain" SET "verifiedHostname" = "hostname" WHERE "verifiedAt" IS NOT NULL;

ALTER TABLE "SpaceDomain" ADD CONSTRAINT "SpaceDomain_pkey" PRIMARY KEY ("spaceId", "hostname");

CREATE UNIQUE INDEX "SpaceDomain_verifiedHostname_key" ON "SpaceDomain"("verifiedHostname");

CREATE INDEX "SpaceDomain_hostname_idx" ON "SpaceDomain"("hostname");
