export const LOGGER_VERSION = { Major: 0, Minor: 1, Build: 0, BuildDateTime: "2026-11-22T00:00:00Z" };

// The console treats a Name containing "Service" as a service and anything else as a controller.
export const loggerName = (controller: boolean) => (controller ? "Loggia Logger Controller" : "Loggia Logger Service");
