-- CreateEnum
CREATE TYPE "SpaceKind" AS ENUM ('repo', 'room', 'app');

-- CreateEnum
CREATE TYPE "SpaceVisibility" AS ENUM ('public', 'members');

-- CreateEnum
CREATE TYPE "SpaceAccessPurpose" AS ENUM ('unlock', 'member', 'handoff');

-- CreateTable
CREATE TABLE "Space" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "SpaceKind" NOT NULL DEFAULT 'repo',
    "visibility" "SpaceVisibility" NOT NULL DEFAULT 'public',
    "guestComments" BOOLEAN NOT NULL DEFAULT false,
    "guestWrites" BOOLEAN NOT NULL DEFAULT false,
    "passwordHash" TEXT,
    "latestVersion" INTEGER NOT NULL DEFAULT 0,
    "createdById" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "commentsUpdatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uploadsUpdatedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Space_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SpaceViewer" (
    "spaceId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SpaceViewer_pkey" PRIMARY KEY ("spaceId","userId")
);

-- CreateTable
CREATE TABLE "Blob" (
    "sha256" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Blob_pkey" PRIMARY KEY ("sha256")
);

-- CreateTable
CREATE TABLE "WorkspaceBlob" (
    "workspaceId" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkspaceBlob_pkey" PRIMARY KEY ("workspaceId","sha256")
);

-- CreateTable
CREATE TABLE "ManifestChunk" (
    "hash" TEXT NOT NULL,
    "entries" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ManifestChunk_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "Version" (
    "spaceId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "message" TEXT,
    "authorId" TEXT,
    "fileCount" INTEGER NOT NULL,
    "bytes" BIGINT NOT NULL,
    "chunks" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Version_pkey" PRIMARY KEY ("spaceId","number")
);

-- CreateTable
CREATE TABLE "Upload" (
    "id" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "sha256" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "uploadedById" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Upload_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DownloadTicket" (
    "hash" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "path" TEXT,
    "version" INTEGER,
    "uploadId" TEXT,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DownloadTicket_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "SpaceAccessToken" (
    "hash" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "purpose" "SpaceAccessPurpose" NOT NULL,
    "userId" TEXT,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SpaceAccessToken_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "RateCounter" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "resetAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "RateCounter_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "SpaceView" (
    "id" BIGSERIAL NOT NULL,
    "spaceId" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "path" TEXT NOT NULL,
    "version" INTEGER,
    "referrer" TEXT,
    "country" TEXT,
    "visitor" TEXT NOT NULL,
    "userId" TEXT,

    CONSTRAINT "SpaceView_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DailySalt" (
    "day" TEXT NOT NULL,
    "salt" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DailySalt_pkey" PRIMARY KEY ("day")
);

-- CreateIndex
CREATE INDEX "Space_workspaceId_createdAt_idx" ON "Space"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "SpaceViewer_userId_idx" ON "SpaceViewer"("userId");

-- CreateIndex
CREATE INDEX "Upload_spaceId_createdAt_idx" ON "Upload"("spaceId", "createdAt");

-- CreateIndex
CREATE INDEX "DownloadTicket_expiresAt_idx" ON "DownloadTicket"("expiresAt");

-- CreateIndex
CREATE INDEX "SpaceAccessToken_spaceId_idx" ON "SpaceAccessToken"("spaceId");

-- CreateIndex
CREATE INDEX "SpaceAccessToken_expiresAt_idx" ON "SpaceAccessToken"("expiresAt");

-- CreateIndex
CREATE INDEX "SpaceView_spaceId_at_idx" ON "SpaceView"("spaceId", "at");

-- CreateIndex
CREATE INDEX "SpaceView_at_idx" ON "SpaceView"("at");

-- AddForeignKey
ALTER TABLE "Space" ADD CONSTRAINT "Space_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Space" ADD CONSTRAINT "Space_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SpaceViewer" ADD CONSTRAINT "SpaceViewer_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SpaceViewer" ADD CONSTRAINT "SpaceViewer_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkspaceBlob" ADD CONSTRAINT "WorkspaceBlob_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkspaceBlob" ADD CONSTRAINT "WorkspaceBlob_sha256_fkey" FOREIGN KEY ("sha256") REFERENCES "Blob"("sha256") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Version" ADD CONSTRAINT "Version_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Version" ADD CONSTRAINT "Version_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Upload" ADD CONSTRAINT "Upload_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Upload" ADD CONSTRAINT "Upload_uploadedById_fkey" FOREIGN KEY ("uploadedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DownloadTicket" ADD CONSTRAINT "DownloadTicket_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SpaceAccessToken" ADD CONSTRAINT "SpaceAccessToken_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SpaceView" ADD CONSTRAINT "SpaceView_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;
