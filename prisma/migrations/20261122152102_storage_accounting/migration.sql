-- AlterTable
ALTER TABLE "Blob" ADD COLUMN     "lastUsedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "storageBytes" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "storageReserved" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "WorkspaceBlob" ADD COLUMN     "lastUsedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateTable
CREATE TABLE "StorageReservation" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "StorageReservation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "StorageReservation_expiresAt_idx" ON "StorageReservation"("expiresAt");

-- AddForeignKey
ALTER TABLE "StorageReservation" ADD CONSTRAINT "StorageReservation_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: what each workspace already holds.
UPDATE "Workspace" w SET "storageBytes" = held.bytes
FROM (SELECT wb."workspaceId", SUM(b."size") AS bytes FROM "WorkspaceBlob" wb JOIN "Blob" b ON b."sha256" = wb."sha256" GROUP BY wb."workspaceId") held
WHERE held."workspaceId" = w."id";
