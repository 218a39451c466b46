-- CreateTable
CREATE TABLE "SpaceDomain" (
    "hostname" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "verifiedAt" TIMESTAMPTZ(3),
    "createdById" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SpaceDomain_pkey" PRIMARY KEY ("hostname")
);

-- CreateIndex
CREATE INDEX "SpaceDomain_spaceId_idx" ON "SpaceDomain"("spaceId");

-- AddForeignKey
ALTER TABLE "SpaceDomain" ADD CONSTRAINT "SpaceDomain_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SpaceDomain" ADD CONSTRAINT "SpaceDomain_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
