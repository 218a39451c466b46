-- AlterTable
ALTER TABLE "SpaceDbChange" ADD COLUMN     "pagesSha" TEXT;
