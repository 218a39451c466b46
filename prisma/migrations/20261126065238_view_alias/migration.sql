-- AlterTable
ALTER TABLE "SpaceView" ADD COLUMN     "alias" TEXT;
