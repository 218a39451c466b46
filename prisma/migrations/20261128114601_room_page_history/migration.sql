-- CreateEnum
CREATE TYPE "RoomSnapshotReason" AS ENUM ('edits', 'named', 'restore');

-- CreateTable
CREATE TABLE "RoomPageSnapshot" (
    "id" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "pageId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "content" JSONB NOT NULL,
    "markdown" TEXT NOT NULL,
    "reason" "RoomSnapshotReason" NOT NULL,
    "name" TEXT,
    "editorIds" TEXT[],
    "createdById" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RoomPageSnapshot_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RoomPageSnapshot_roomId_pageId_createdAt_idx" ON "RoomPageSnapshot"("roomId", "pageId", "createdAt");

-- AddForeignKey
ALTER TABLE "RoomPageSnapshot" ADD CONSTRAINT "RoomPageSnapshot_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE CASCADE ON UPDATE CASCADE;
