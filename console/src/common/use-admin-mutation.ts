/**
 * One shape for every console action: progress while pending (isPending), the server's message as a
 * notification on success and on failure, and the queries the action changed refetched (TanStack Query
 * invalidation). An UNAUTHENTICATED answer means the admin cookie ended: the session query is refetched so
 * the sign-in form replaces the console.
 */
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError } from '../../../ui-shared/graphql-client.ts';
import { queryKeys } from '../api/queries.ts';
import { notifyError, notifySuccess } from './notify.ts';

interface AdminMutationOptions<TInput, TResult> {
  mutationFn: (input: TInput) => Promise<TResult>;
  /** Query keys (prefixes) whose data the action changes. */
  invalidates: QueryKey[];
  /** The success notification; defaults to the server's `message` when the answer has one. */
  successMessage?: (result: TResult) => string | undefined;
  onSuccess?: (result: TResult) => void;
}

export function useAdminMutation<TInput, TResult>(options: AdminMutationOptions<TInput, TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: options.mutationFn,
    onSuccess: async (result) => {
      const message = options.successMessage ? options.successMessage(result) : (result as { message?: string })?.message;
      if (message) notifySuccess(message);
      options.onSuccess?.(result);
      await Promise.all(options.invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
    onError: async (err) => {
      notifyError(err);
      if (err instanceof ApiError && err.code === 'UNAUTHENTICATED') {
        await queryClient.invalidateQueries({ queryKey: queryKeys.adminSession });
      }
    },
  });
}
