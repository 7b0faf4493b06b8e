// The default logo (spec §9: 151×41). Its wordmark is the brand's dark blue, which reads 1.9:1 on
// the dark theme's navy (issue 28 §4): a dark header or page shows the twin with a light wordmark.

export function DefaultLogo() {
  return (
    <>
      <img src="/logo.svg" alt="Loggia" width={151} height={41} className="dark:hidden chrome-dark:hidden" data-logo="default" />
      <img src="/logo-dark.svg" alt="Loggia" width={151} height={41} className="hidden dark:block chrome-dark:block" data-logo="default-dark" />
    </>
  );
}
