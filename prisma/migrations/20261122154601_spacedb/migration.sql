-- CreateTable
CREATE TABLE "SpaceDatabase" (
    "spaceId" TEXT NOT NULL,
    "headSeq" INTEGER NOT NULL DEFAULT 0,
    "headAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sinceSnapshotBytes" BIGINT NOT NULL DEFAULT 0,
    "guestWrites" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SpaceDatabase_pkey" PRIMARY KEY ("spaceId")
);

-- CreateTable
CREATE TABLE "SpaceDbChange" (
    "spaceId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "pageSize" INTEGER NOT NULL,
    "pageCount" INTEGER NOT NULL,
    "pages" BYTEA,
    "imageSha" TEXT,
    "imageSize" INTEGER,

    CONSTRAINT "SpaceDbChange_pkey" PRIMARY KEY ("spaceId","seq")
);

-- CreateTable
CREATE TABLE "SpaceDbSnapshot" (
    "spaceId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SpaceDbSnapshot_pkey" PRIMARY KEY ("spaceId","seq")
);

-- CreateTable
CREATE TABLE "SpaceDbWrite" (
    "id" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "userId" TEXT,
    "guestName" TEXT,
    "origin" JSONB NOT NULL,
    "statement" TEXT NOT NULL,
    "name" TEXT,
    "rowsWritten" INTEGER NOT NULL,

    CONSTRAINT "SpaceDbWrite_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SpaceDbChange_spaceId_at_idx" ON "SpaceDbChange"("spaceId", "at");

-- CreateIndex
CREATE INDEX "SpaceDbWrite_spaceId_at_idx" ON "SpaceDbWrite"("spaceId", "at");

-- AddForeignKey
ALTER TABLE "SpaceDatabase" ADD CONSTRAINT "SpaceDatabase_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SpaceDbChange" ADD CONSTRAINT "SpaceDbChange_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SpaceDbSnapshot" ADD CONSTRAINT "SpaceDbSnapshot_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SpaceDbWrite" ADD CONSTRAINT "SpaceDbWrite_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;
