import { vi } from 'vitest';
import type { EditorPosition, PickItem, Ui } from '../src/ui';

/** A scripted Ui: answers prompts from queues and records messages. */
export function fakeUi(script: {
  picks?: (string | undefined)[];
  inputs?: (string | undefined)[];
  choices?: (string | undefined)[];
  /** Labels chosen in plain quick picks (ui.pick), in order. */
  chosen?: (string | undefined)[];
  files?: (string | undefined)[];
  editor?: EditorPosition;
} = {}) {
  const messages: { level: string; text: string; items: string[] }[] = [];
  const pickCalls: { items: PickItem[]; options: { title: string; value?: string } }[] = [];
  const inputCalls: { prompt: string; value?: string; validate?: (v: string) => string | undefined }[] = [];
  const plainPicks: { items: PickItem[]; title: string }[] = [];
  const ui: Ui = {
    message: vi.fn(async (level, text, ...items) => {
      messages.push({ level, text, items });
      return script.choices?.shift();
    }),
    pickOrType: vi.fn(async (items, options) => {
      pickCalls.push({ items, options });
      return script.picks?.shift();
    }),
    inputBox: vi.fn(async (options) => {
      inputCalls.push({ prompt: options.prompt, value: options.value, validate: options.validateInput });
      return script.inputs?.shift();
    }),
    pick: vi.fn(async (items: PickItem[], options: { title: string }) => {
      plainPicks.push({ items, title: options.title });
      const label = script.chosen?.shift();
      return items.find((i) => i.label === label);
    }) as Ui['pick'],
    openFile: vi.fn(async () => script.files?.shift()),
    withProgress: vi.fn(async (_title, task) => task({ report: () => undefined, onCancel: () => undefined })),
    activeEditor: () => script.editor,
    openExternal: vi.fn(async () => true),
  };
  return { ui, messages, pickCalls, inputCalls, plainPicks };
}
