-- AlterTable
ALTER TABLE "Version" ADD COLUMN     "siteRules" JSONB;
