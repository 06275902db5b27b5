/** What Linux's /proc says of a process: CPU time used and peak resident memory. */
import { readFileSync } from 'node:fs';

/** Clock ticks a second in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
export const TICKS_PER_SECOND = 100;

/** A process's command name and its CPU time so far (user + system), in clock ticks. */
export function cpuTicks(pid: number | string): { comm: string; ticks: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the command name is in parentheses and may itself hold spaces or parentheses
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  return { comm, ticks: Number(fields[11]) + Number(fields[12]) };
}

/** A process's peak resident memory (VmHWM) in MB; NaN when /proc does not say. */
export function peakRssMb(pid: number | string): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}
