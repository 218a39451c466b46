-- CreateEnum
CREATE TYPE "CliSignInStatus" AS ENUM ('pending', 'approved', 'denied');

-- CreateTable
CREATE TABLE "OAuthAccount" (
    "provider" TEXT NOT NULL,
    "providerAccountId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuthAccount_pkey" PRIMARY KEY ("provider","providerAccountId")
);

-- CreateTable
CREATE TABLE "EmailSignIn" (
    "tokenHash" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "EmailSignIn_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateTable
CREATE TABLE "CliSignIn" (
    "id" TEXT NOT NULL,
    "userCode" TEXT NOT NULL,
    "deviceCodeHash" TEXT NOT NULL,
    "label" TEXT,
    "status" "CliSignInStatus" NOT NULL DEFAULT 'pending',
    "ip" TEXT,
    "city" TEXT,
    "country" TEXT,
    "userAgent" TEXT,
    "interval" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "lastPolledAt" TIMESTAMPTZ(3),
    "decidedById" TEXT,
    "decidedAt" TIMESTAMPTZ(3),
    "pickedUpAt" TIMESTAMPTZ(3),

    CONSTRAINT "CliSignIn_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ServerSecret" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ServerSecret_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "OAuthAccount_userId_idx" ON "OAuthAccount"("userId");

-- CreateIndex
CREATE INDEX "EmailSignIn_email_idx" ON "EmailSignIn"("email");

-- CreateIndex
CREATE UNIQUE INDEX "CliSignIn_userCode_key" ON "CliSignIn"("userCode");

-- CreateIndex
CREATE UNIQUE INDEX "CliSignIn_deviceCodeHash_key" ON "CliSignIn"("deviceCodeHash");

-- CreateIndex
CREATE INDEX "CliSignIn_status_ip_idx" ON "CliSignIn"("status", "ip");

-- CreateIndex
CREATE INDEX "CliSignIn_expiresAt_idx" ON "CliSignIn"("expiresAt");

-- CreateIndex
CREATE INDEX "CliSignIn_decidedById_idx" ON "CliSignIn"("decidedById");

-- AddForeignKey
ALTER TABLE "OAuthAccount" ADD CONSTRAINT "OAuthAccount_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CliSignIn" ADD CONSTRAINT "CliSignIn_decidedById_fkey" FOREIGN KEY ("decidedById") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
