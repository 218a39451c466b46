-- AlterTable
ALTER TABLE "Comment" ADD COLUMN     "alias" TEXT;
