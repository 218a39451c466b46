import { liveSpaceRoutes } from '@/app/v1/rooms/handlers.ts';

export const { GET } = liveSpaceRoutes.historyDiff;
