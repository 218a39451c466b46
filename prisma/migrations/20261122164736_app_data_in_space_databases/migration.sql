-- DropForeignKey
ALTER TABLE "AppDataRow" DROP CONSTRAINT "AppDataRow_appId_fkey";

-- AlterTable
ALTER TABLE "App" ADD COLUMN     "liveSpaceId" TEXT;

-- DropTable
DROP TABLE "AppDataRow";

-- CreateIndex
CREATE UNIQUE INDEX "App_liveSpaceId_key" ON "App"("liveSpaceId");

-- AddForeignKey
ALTER TABLE "App" ADD CONSTRAINT "App_liveSpaceId_fkey" FOREIGN KEY ("liveSpaceId") REFERENCES "Space"("id") ON DELETE SET NULL ON UPDATE CASCADE;
