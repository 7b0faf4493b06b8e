import { isRouteErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { readOffset } from "~/services/forms.server";

const status = (f: () => unknown) => {
  try {
    f();
    return 200;
  } catch (error) {
    // data() thrown by a loader: React Router answers its status.
    const init = (error as { init?: { status?: number } }).init;
    return isRouteErrorResponse(error) ? error.status : (init?.status ?? 500);
  }
};

describe("readOffset", () => {
  it("reads absent and whole offsets", () => {
    expect(readOffset(null)).toBe(0);
    expect(readOffset("")).toBe(0);
    expect(readOffset("150")).toBe(150);
  });
  it("answers 400 for numbers no page has, instead of passing Infinity on", () => {
    for (const v of ["1e309", "-1", "1.5", "abc", "1e10", "NaN", "Infinity"]) expect(status(() => readOffset(v)), v).toBe(400);
  });
});
