-- CreateEnum
CREATE TYPE "AppStatus" AS ENUM ('draft', 'preview', 'live', 'paused');

-- CreateEnum
CREATE TYPE "AppAccess" AS ENUM ('public', 'code', 'private');

-- CreateEnum
CREATE TYPE "AppDeployKind" AS ENUM ('live', 'promote', 'rollback');

-- CreateTable
CREATE TABLE "App" (
    "id" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "status" "AppStatus" NOT NULL DEFAULT 'draft',
    "access" "AppAccess" NOT NULL DEFAULT 'code',
    "joinCode" TEXT,
    "accessEpoch" INTEGER NOT NULL DEFAULT 0,
    "previewVersion" INTEGER NOT NULL DEFAULT 0,
    "liveVersion" INTEGER,
    "appBuild" JSONB NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "App_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AppDeploy" (
    "appId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "kind" "AppDeployKind" NOT NULL,
    "actorId" TEXT,
    "actorHandle" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AppDeploy_pkey" PRIMARY KEY ("appId","number")
);

-- CreateTable
CREATE TABLE "AppEndUser" (
    "id" TEXT NOT NULL,
    "appId" TEXT NOT NULL,
    "userId" TEXT,
    "via" TEXT NOT NULL,
    "firstSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AppEndUser_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AppDataRow" (
    "id" BIGSERIAL NOT NULL,
    "appId" TEXT NOT NULL,
    "tableName" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AppDataRow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AppLinkUse" (
    "jti" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "AppLinkUse_pkey" PRIMARY KEY ("jti")
);

-- CreateIndex
CREATE UNIQUE INDEX "App_spaceId_key" ON "App"("spaceId");

-- CreateIndex
CREATE UNIQUE INDEX "App_slug_key" ON "App"("slug");

-- CreateIndex
CREATE INDEX "App_roomId_idx" ON "App"("roomId");

-- CreateIndex
CREATE INDEX "AppEndUser_appId_lastSeenAt_idx" ON "AppEndUser"("appId", "lastSeenAt");

-- CreateIndex
CREATE UNIQUE INDEX "AppEndUser_appId_userId_key" ON "AppEndUser"("appId", "userId");

-- CreateIndex
CREATE INDEX "AppDataRow_appId_tableName_id_idx" ON "AppDataRow"("appId", "tableName", "id");

-- AddForeignKey
ALTER TABLE "App" ADD CONSTRAINT "App_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "App" ADD CONSTRAINT "App_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AppDeploy" ADD CONSTRAINT "AppDeploy_appId_fkey" FOREIGN KEY ("appId") REFERENCES "App"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AppEndUser" ADD CONSTRAINT "AppEndUser_appId_fkey" FOREIGN KEY ("appId") REFERENCES "App"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AppDataRow" ADD CONSTRAINT "AppDataRow_appId_fkey" FOREIGN KEY ("appId") REFERENCES "App"("id") ON DELETE CASCADE ON UPDATE CASCADE;
