import { roomRoutes } from '@/app/v1/rooms/handlers.ts';

export const { GET } = roomRoutes.historyDiff;
