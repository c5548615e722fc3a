/**
 * The pool's side of a task in a worker thread. A worker module exports
 * `poolTask(handle)`: before it handles a task it tells the pool, through the envelope's
 * port, that the task has started. The pool starts a query's clock then, so waiting for a
 * busy worker and a new worker's module loading never count against its time limit.
 */
import type { MessagePort } from 'node:worker_threads';
import { runWithStopFlags } from './stop-handshake.ts';

export interface TaskEnvelope<Task> {
  readonly task: Task;
  /** Receives one message when the task starts. */
  readonly started: MessagePort;
  /** The task's stop flags (stop-handshake.ts), read by the worker's guarded native calls. */
  readonly stop?: SharedArrayBuffer;
}

/**
 * @example export default poolTask((task: MyTask) => replyOf(() => work(task)));
 */
export function poolTask<Task, Reply>(handle: (task: Task) => Reply): (envelope: TaskEnvelope<Task>) => Reply {
  return (envelope) => {
    envelope.started.postMessage('started');
    envelope.started.close();
    return runWithStopFlags(envelope.stop, () => handle(envelope.task));
  };
}
