-- CreateTable
CREATE TABLE "RoomUpdate" (
    "id" BIGSERIAL NOT NULL,
    "roomId" TEXT NOT NULL,
    "update" BYTEA NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RoomUpdate_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RoomUpdate_roomId_id_idx" ON "RoomUpdate"("roomId", "id");

-- AddForeignKey
ALTER TABLE "RoomUpdate" ADD CONSTRAINT "RoomUpdate_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE CASCADE ON UPDATE CASCADE;
