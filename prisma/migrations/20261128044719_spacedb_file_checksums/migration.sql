-- AlterTable
ALTER TABLE "SpaceDbChange" ADD COLUMN     "fileSha" TEXT;
