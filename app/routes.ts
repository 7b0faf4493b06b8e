import { index, route, type RouteConfig } from "@react-router/dev/routes";
import { FEATURES } from "./features";

// Screens come from the feature table; only built ones (with a module) are routed.
const screens = FEATURES.filter((f) => f.module).map((f) => route(f.path.slice(1), f.module!));

export default [
  index("routes/home.tsx"),
  route("signin", "routes/signin.tsx"),
  route("signin/token", "routes/signinToken.tsx"),
  route("logout", "routes/logout.tsx"),
  route("changePassword", "routes/changePassword.tsx"),
  route("defaultDashboard", "routes/defaultDashboard.tsx"),
  route("banner/dismiss", "routes/bannerDismiss.tsx"),
  route("dashboard/acknowledge", "routes/alarmAck.tsx"),
  route("alarms/feed", "routes/alarmFeed.ts"),
  route("theme/logo", "routes/themeLogo.tsx"),
  route("live", "routes/live.tsx"),
  route("dashboard/series", "routes/dashboardSeries.ts"),
  route("log/export", "routes/logExport.tsx"),
  route("traceLog/download", "routes/traceLogDownload.tsx"),
  route("export/csv", "routes/exportCsv.tsx"),
  route("import/progress", "routes/importProgress.tsx"),
  route("import/submit", "routes/importSubmit.tsx"),
  route("fileBrowser/raw", "routes/fileBrowserRaw.tsx"),
  route("fileBrowser/upload", "routes/fileBrowserUpload.tsx"),
  route("refused", "routes/refused.tsx"),
  route("annotations", "routes/annotations.tsx"),
  ...screens,
  // Also the bare-UUID redirect (spec §2); keeps i18n available for the 404 page.
  route("*", "routes/notFound.tsx"),
] satisfies RouteConfig;
