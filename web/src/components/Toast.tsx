import { createStore, useStore } from '../store.ts';
import './Toast.css';

/** A short confirmation that outlives the element it is about (a cashed-out bet leaves the open list). */
const toastStore = createStore<{ id: number; text: string } | null>(null);
let timer: ReturnType<typeof setTimeout> | undefined;

export function showToast(text: string): void {
  toastStore.set({ id: Date.now(), text });
  clearTimeout(timer);
  timer = setTimeout(() => toastStore.set(null), 5000);
}

export function Toast() {
  const toast = useStore(toastStore);
  return (
    <div class="toast-region" role="status" aria-live="polite">
      {toast && (
        <p class="toast" key={toast.id}>
          <span class="tick" aria-hidden="true">
            ✓
          </span>
          {toast.text}
        </p>
      )}
    </div>
  );
}
