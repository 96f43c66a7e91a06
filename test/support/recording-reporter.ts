import type { Annotation, OutputName, Reporter } from '../../src/report.js';

export interface RecordedAnnotation {
  level: 'notice' | 'warning' | 'error';
  message: string;
  annotation?: Annotation;
}

/** A Reporter that keeps everything, for tests that run the core in-process. */
export function recordingReporter() {
  const lines: string[] = [];
  const annotations: RecordedAnnotation[] = [];
  const outputs: Partial<Record<OutputName, string>> = {};
  const reporter: Reporter = {
    info: (message) => lines.push(message),
    notice: (message, annotation) =>
      annotations.push({ level: 'notice', message, ...(annotation ? { annotation } : {}) }),
    warning: (message, annotation) =>
      annotations.push({ level: 'warning', message, ...(annotation ? { annotation } : {}) }),
    error: (message, annotation) =>
      annotations.push({ level: 'error', message, ...(annotation ? { annotation } : {}) }),
    debug: () => undefined,
    group: (_title, fn) => fn(),
    setOutput: (name, value) => {
      outputs[name] = value;
    },
    mask: () => undefined,
  };
  const of = (level: RecordedAnnotation['level']) => annotations.filter((a) => a.level === level);
  return { reporter, lines, annotations, outputs, of, log: () => lines.join('\n') };
}
