-- CreateTable
CREATE TABLE "SpaceAlias" (
    "spaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "updatedById" TEXT,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SpaceAlias_pkey" PRIMARY KEY ("spaceId","name")
);

-- AddForeignKey
ALTER TABLE "SpaceAlias" ADD CONSTRAINT "SpaceAlias_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SpaceAlias" ADD CONSTRAINT "SpaceAlias_updatedById_fkey" FOREIGN KEY ("updatedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
