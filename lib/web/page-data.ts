// Server pages call the domain functions the API uses; a resource the person
// may not see becomes the page's 404, as it is the API's.
import { notFound } from 'next/navigation';
import { ApiError } from '../core/errors.ts';

export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') notFound();
    throw error;
  }
}
