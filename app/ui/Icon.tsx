import type { IconName } from "~/features";

// Simple line icons drawn on a 24-unit grid; one path set per feature icon.
const PATHS: Record<IconName, string> = {
  dashboard: "M3 3h8v10H3zM13 3h8v6h-8zM13 11h8v10h-8zM3 15h8v6H3z",
  grid: "M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h6v6h-6z",
  chart: "M3 20h18M5 16l4-6 4 3 6-8",
  download: "M12 3v12m0 0l-5-5m5 5l5-5M4 21h16",
  upload: "M12 16V4m0 0L7 9m5-5l5 5M4 21h16",
  devices: "M4 5h16v10H4zM8 19h8M12 15v4",
  bell: "M6 16V11a6 6 0 1112 0v5l2 2H4zM10 20a2 2 0 004 0",
  folder: "M3 6h6l2 2h10v11H3z",
  map: "M9 4l-6 2v14l6-2 6 2 6-2V4l-6 2zM9 4v14M15 6v14",
  table: "M3 5h18v14H3zM3 10h18M9 5v14",
  sliders: "M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0M14 4v4M8 10v4M16 16v4",
  tree: "M5 4h5v4H5zM14 10h5v4h-5zM14 17h5v4h-5zM7.5 8v11H14M7.5 12H14",
  list: "M8 6h13M8 12h13M8 18h13M3 6h1M3 12h1M3 18h1",
  screen: "M3 4h18v12H3zM8 20h8M12 16v4",
  log: "M6 3h9l4 4v14H6zM9 9h7M9 13h7M9 17h5",
  tag: "M3 12V3h9l9 9-9 9zM7.5 7.5h.01",
  pulse: "M3 12h4l2-6 4 12 2-6h6",
  trace: "M4 6h16M4 10h10M4 14h16M4 18h8",
  notebook: "M5 3h12a2 2 0 012 2v16H7a2 2 0 01-2-2zM9 3v18",
  bus: "M4 8h16M4 16h16M8 8v8M12 8v8M16 8v8",
  user: "M12 12a4 4 0 100-8 4 4 0 000 8zM4 21a8 8 0 0116 0",
  settings: "M12 15a3 3 0 100-6 3 3 0 000 6zM19 12l2-1-1-3-2 .5-1.5-1.5.5-2-3-1-1 2h-2l-1-2-3 1 .5 2L6 7.5 4 7 3 10l2 1v2l-2 1 1 3 2-.5L7.5 18 7 20l3 1 1-2h2l1 2 3-1-.5-2 1.5-1.5 2 .5 1-3-2-1z",
  shield: "M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z",
  users: "M9 11a4 4 0 100-8 4 4 0 000 8zM2 21a7 7 0 0114 0M17 11a3 3 0 100-6M22 21a6 6 0 00-4-5.6",
  info: "M12 21a9 9 0 100-18 9 9 0 000 18zM12 11v6M12 7h.01",
  history: "M3 12a9 9 0 109-9 9 9 0 00-7 3.3M3 4v4h4M12 7v5l3 3",
  help: "M12 21a9 9 0 100-18 9 9 0 000 18zM9.5 9a2.5 2.5 0 115 .5c0 1.5-2.5 2-2.5 3.5M12 17h.01",
  logout: "M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10",
  rules: "M4 5h16M4 12h16M4 19h10M18 17l2 2-2 2",
  plug: "M9 3v5M15 3v5M6 8h12v3a6 6 0 01-12 0zM12 17v4",
};

export function Icon({ name, className = "h-5 w-5" }: { name: IconName; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={PATHS[name]} />
    </svg>
  );
}
