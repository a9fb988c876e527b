// The report page (assets/report/page.js) runs beside Chart.js's UMD build, which it finds as the
// global `Chart` (src/report/reportPage.ts inlines both). For tsconfig.page.json only.
import type { Chart as ChartJs } from 'chart.js';

declare global {
  const Chart: typeof ChartJs;
}
