import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { isTileUrl } from "~/schemas/map";
import { deviceState, STALE_AFTER_MS } from "~/services/deviceState";
import { buildSvgMap, loadCountries } from "~/services/mapSvg.server";
import { SvgMap } from "~/ui/map/SvgMap";

type Shapes = Awaited<ReturnType<typeof loadCountries>>;

const MODENA = { id: "a", lat: 44.6471, lon: 10.9252 };
const MARANELLO = { id: "b", lat: 44.5287, lon: 10.8636 };
const CIMONE = { id: "c", lat: 44.1936, lon: 10.7016 };

describe("server-rendered SVG map", () => {
  let shapes: Shapes;
  beforeAll(async () => {
    shapes = await loadCountries();
  });

  it("fits the devices into the picture with the padding, north up and east right", () => {
    const map = buildSvgMap([MODENA, MARANELLO, CIMONE], shapes, { width: 800, height: 600, padding: 50, minSpanDeg: 0 });
    const [a, b, c] = map.markers;
    for (const m of map.markers) {
      expect(m.x).toBeGreaterThanOrEqual(49.9);
      expect(m.x).toBeLessThanOrEqual(750.1);
      expect(m.y).toBeGreaterThanOrEqual(49.9);
      expect(m.y).toBeLessThanOrEqual(550.1);
    }
    // Modena is the north-east corner of the extent, Monte Cimone the south-west one.
    expect(a.x).toBeGreaterThan(b.x);
    expect(b.x).toBeGreaterThan(c.x);
    expect(a.y).toBeLessThan(b.y);
    expect(b.y).toBeLessThan(c.y);
    // The extent is taller than wide here, so it fills the height exactly.
    expect(a.y).toBeCloseTo(50, 0);
    expect(c.y).toBeCloseTo(550, 0);
    // Maranello lies between them as it does on the ground (Mercator keeps the proportions locally).
    const ratio = (b.x - c.x) / (a.x - c.x);
    expect(ratio).toBeCloseTo((MARANELLO.lon - CIMONE.lon) / (MODENA.lon - CIMONE.lon), 2);
  });

  it("draws only the countries in the picture, Italy among them", () => {
    const map = buildSvgMap([MODENA, MARANELLO, CIMONE], shapes);
    const names = map.countries.map((c) => c.name);
    expect(names).toContain("Italy");
    // The minimum extent shows the neighbourhood, not just the inside of one country.
    expect(names).toContain("Switzerland");
    expect(names).not.toContain("Australia");
    expect(map.countries.every((c) => c.d.startsWith("M"))).toBe(true);
    // Same devices, same picture: the second call is the cached one.
    expect(buildSvgMap([MODENA, MARANELLO, CIMONE], shapes)).toBe(map);
  });

  it("centres a single device in a minimum extent, and shows the world without devices", () => {
    const one = buildSvgMap([MODENA], shapes, { width: 900, height: 500, minSpanDeg: 1 });
    // Centred up to Mercator's stretch towards the pole (under 2 px over one degree).
    expect(Math.abs(one.markers[0].x - 450)).toBeLessThan(1);
    expect(Math.abs(one.markers[0].y - 250)).toBeLessThan(2);
    const world = buildSvgMap([], shapes);
    expect(world.markers).toEqual([]);
    expect(world.countries.length).toBeGreaterThan(200);
  });

  it("escapes device names in markers, labels and titles", () => {
    const name = `<script>alert("x")</script> & Co`;
    const html = renderToStaticMarkup(
      createElement(SvgMap, {
        title: "Map <of> devices",
        width: 100,
        height: 100,
        countries: [],
        markers: [{ id: `x" onclick="evil`, x: 10, y: 20, name, state: "alarm", label: `${name}: Alarm` }],
      }),
    );
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co");
    expect(html).toContain("Map &lt;of&gt; devices");
    expect(html).not.toContain(`" onclick="`);
    expect(html).toContain('fill="#dc2626"');
  });
});

describe("device state", () => {
  const now = 1_000_000_000;
  const base = { connected: true, lastHeartbeat: now - 1000, running: true, alarm: false, now };
  it("follows Project State's flags, with an alarm first", () => {
    expect(deviceState(base)).toBe("online");
    expect(deviceState({ ...base, connected: false })).toBe("offline");
    expect(deviceState({ ...base, running: false })).toBe("stale");
    expect(deviceState({ ...base, lastHeartbeat: now - STALE_AFTER_MS - 1 })).toBe("stale");
    expect(deviceState({ ...base, lastHeartbeat: null })).toBe("stale");
    expect(deviceState({ ...base, connected: false, alarm: true })).toBe("alarm");
    // Not known while the logger does not answer: neither an old "online" nor a missing alarm mark.
    expect(deviceState({ ...base, alarm: null })).toBe("unknown");
    expect(deviceState({ ...base, connected: false, alarm: null })).toBe("unknown");
  });
});

describe("tile URL rule", () => {
  it("wants http(s) with {z}, {x} and {y}", () => {
    expect(isTileUrl("https://tile.example.org/{z}/{x}/{y}.png")).toBe(true);
    expect(isTileUrl("http://127.0.0.1:8080/tiles/{z}/{x}/{y}.png?key=1")).toBe(true);
    expect(isTileUrl("https://tile.example.org/{z}/{x}.png")).toBe(false);
    expect(isTileUrl("ftp://tile.example.org/{z}/{x}/{y}.png")).toBe(false);
    expect(isTileUrl("javascript:alert('{z}{x}{y}')")).toBe(false);
    expect(isTileUrl(`https://t.example/{z}/{x}/{y}/${"a".repeat(500)}`)).toBe(false);
  });
});
