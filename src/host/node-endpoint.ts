// Comlink's node adapter, typed for worker_threads. comlink ships it only as a UMD file whose `export default`
// typing is wrong under `module: nodenext` (the CommonJS module *is* the function), so the host carries its own.
import type { Endpoint } from 'comlink';

/** What a `worker_threads` `Worker` or `MessagePort` offers that the adapter needs. */
export interface NodeMessageTarget {
  postMessage(message: unknown, transfer?: readonly Transferable[]): void;
  on(type: 'message', listener: (data: unknown) => void): unknown;
  off(type: 'message', listener: (data: unknown) => void): unknown;
}

/** Makes a `worker_threads` `Worker` (or port) a Comlink endpoint: Node hands over data, Comlink wants events. */
export function nodeEndpoint(target: NodeMessageTarget): Endpoint {
  const listeners = new WeakMap<EventListenerOrEventListenerObject, (data: unknown) => void>();
  return {
    postMessage: (message, transfer) => target.postMessage(message, transfer),
    addEventListener: (_type, handler) => {
      const listener = (data: unknown): void => {
        const event = { data } as MessageEvent;
        if (typeof handler === 'function') handler(event);
        else handler.handleEvent(event);
      };
      target.on('message', listener);
      listeners.set(handler, listener);
    },
    removeEventListener: (_type, handler) => {
      const listener = listeners.get(handler);
      if (listener === undefined) return;
      target.off('message', listener);
      listeners.delete(handler);
    },
  };
}
