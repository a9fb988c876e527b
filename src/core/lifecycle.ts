// Minimal lifecycle utilities in the node-pty / xterm.js / VS Code idiom: an event is a subscribe
// function, subscribing returns a Disposable, and owners collect disposables in a store.

export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (value: T) => void) => Disposable;

export class Emitter<T> {
  private _listeners: Array<(value: T) => void> = [];

  readonly event: Event<T> = (listener) => {
    this._listeners.push(listener);
    return {
      dispose: () => {
        this._listeners = this._listeners.filter((l) => l !== listener);
      },
    };
  };

  fire(value: T): void {
    // Iterate over a copy: a listener may unsubscribe itself while being called.
    for (const listener of [...this._listeners]) listener(value);
  }

  get hasListeners(): boolean {
    return this._listeners.length > 0;
  }

  dispose(): void {
    this._listeners = [];
  }
}

export class DisposableStore implements Disposable {
  private _items: Disposable[] = [];
  private _disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this._disposed) item.dispose();
    else this._items.push(item);
    return item;
  }

  dispose(): void {
    this._disposed = true;
    const items = this._items.reverse();
    this._items = [];
    for (const item of items) item.dispose();
  }
}

export function toDisposable(fn: () => void): Disposable {
  return { dispose: fn };
}
