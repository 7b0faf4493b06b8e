import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { handleError } from "~/services/errorLog.server";

// What the console logs of errors met while answering (React Router's handleError).
const request = () => new Request("http://localhost/dashboard", { method: "POST" });

describe("handleError", () => {
  afterEach(() => vi.restoreAllMocks());

  it("does not log the router's answers to a client's mistake (no stack per odd request)", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    // What React Router throws for a POST to a route without an action, and a resource route's 4xx.
    handleError(new ErrorResponse(405, "Method Not Allowed", new Error('You made a POST request to "/dashboard" but did not provide an `action`'), true), { request: request() });
    handleError(new ErrorResponse(400, "", { reason: "bad-request" }), { request: request() });
    expect(log).not.toHaveBeenCalled();
  });

  it("logs server faults, with the inner error's stack", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const fault = new Error("the logger answered nonsense");
    handleError(fault, { request: request() });
    const inner = new Error("inner");
    handleError(new ErrorResponse(500, "Internal Server Error", inner, true), { request: request() });
    expect(log.mock.calls).toEqual([[fault], [inner]]);
  });

  it("does not log what a client's abort caused", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const controller = new AbortController();
    controller.abort();
    handleError(new Error("aborted"), { request: new Request("http://localhost/", { signal: controller.signal }) });
    expect(log).not.toHaveBeenCalled();
  });
});
