// The validator's UI in a real browser (servers/validator/browser_test.go
// runs it, one PHASE at a time, with the server's clock moved between):
//
//   current       log in through the tenant's provider, upload a PAdES
//                 document, read the verdict, download both reports; the
//                 result in German, French and Italian from the language
//                 menu, and the choice kept on the next page;
//   stale         the lists are stale: the banner on the form and the
//                 result, the signature's "as of" marker;
//   cross-tenant  a user of tenant B at tenant A's login is refused.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { env, withPage, screenshot, expect, expectText } from '../../../../fixtures/browser/harness.mjs';

const base = env('BASE_URL');
const tenant = env('TENANT_ID');
const phase = env('PHASE');

// login opens the UI for the tenant and picks user at the provider.
async function login(page, user) {
  await page.goto(`${base}/validate?tenantId=${tenant}`);
  await page.locator(`#user-${user}`).click();
}

// upload validates the PAdES fixture and waits for the result page.
async function upload(page) {
  await page.locator('#file').setInputFiles(env('PDF_PATH'));
  await page.locator('#validate-button').click();
  await page.locator('#verdict').waitFor();
}

// download clicks a report link and returns the file's text, keeping a
// copy beside the screenshots.
async function download(page, id) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator(`#${id}`).click()]);
  const kept = join(env('BROWSER_ARTIFACTS'), file.suggestedFilename());
  await file.saveAs(kept);
  return readFile(kept, 'utf8');
}

if (phase === 'current') {
  await withPage(async (page) => {
    await login(page, 'alice');
    await expectText(page.locator('#page-title'), 'Validate a signed document', 'the upload form');
    expect(await page.locator('#trust-banner').count() === 0, 'a banner while the lists are current');
    await screenshot(page, 'upload');

    await upload(page);
    await expectText(page.locator('#page-title'), 'Validation result', 'the result page');
    await expectText(page.locator('#verdict'), 'Valid: every signature passed', 'the verdict');
    await expectText(page.locator('#signature-1-indication'), 'Passed', 'the indication');
    await expectText(page.locator('#signature-1-format'), 'PAdES_BASELINE_T', 'the format');
    await expectText(page.locator('#trust-heading'), 'Trust data at validation', 'the trust row');
    expect(await page.locator('#trust-banner').count() === 0, 'a banner while the lists are current');
    await screenshot(page, 'result');

    const detailed = await download(page, 'report-detailed');
    expect(detailed.includes('urn:svc-dss:validation:detailed-report:1'), 'the detailed report lacks its namespace');
    const etsi = await download(page, 'report-etsi');
    expect(etsi.includes('http://uri.etsi.org/19102/v1.4.1#'), 'the ETSI report lacks its namespace');
    expect(etsi.includes('urn:etsi:019102:mainindication:total-passed'), 'the ETSI report does not say total-passed');

    // The language menu: the same result in each language.
    for (const [lang, title, verdict] of [
      ['de', 'Ergebnis der Validierung', 'Gültig: alle Signaturen sind gültig'],
      ['fr', 'Résultat de la validation', 'Valide : toutes les signatures sont valides'],
      ['it', 'Risultato della convalida', 'Valido: tutte le firme sono valide'],
    ]) {
      await page.locator(`#language-${lang}`).click();
      await expectText(page.locator('#page-title'), title, `the result page in ${lang}`);
      await expectText(page.locator('#verdict'), verdict, `the verdict in ${lang}`);
      expect(await page.locator('html').getAttribute('lang') === lang, `html lang is not ${lang}`);
      await screenshot(page, `result-${lang}`);
    }
    // Remembered on the next page.
    await page.locator('#validate-another').click();
    await expectText(page.locator('#page-title'), 'Convalidare un documento firmato', 'the upload form in Italian');
    await screenshot(page, 'upload-it');
    await page.locator('#language-en').click();
    await expectText(page.locator('#page-title'), 'Validate a signed document', 'the upload form in English again');
  });
  // The same result on a phone.
  await withPage(async (page) => {
    await login(page, 'alice');
    await screenshot(page, 'upload-phone');
    await upload(page);
    await expectText(page.locator('#verdict'), 'Valid: every signature passed', 'the verdict on a phone');
    await screenshot(page, 'result-phone');
  }, { viewport: { width: 390, height: 844 } });
} else if (phase === 'stale') {
  await withPage(async (page) => {
    await login(page, 'alice');
    await expectText(page.locator('#trust-banner-text'), 'stale', 'the banner on the upload form');
    expect(await page.locator('#trust-banner button').count() === 0, 'the banner can be dismissed');
    await screenshot(page, 'upload-stale');
    await upload(page);
    await expectText(page.locator('#trust-banner-text'), 'stale', 'the banner on the result page');
    await expectText(page.locator('#signature-1-as-of'), 'As of ', 'the as-of marker');
    await screenshot(page, 'result-stale');
    await page.locator('#language-de').click();
    await expectText(page.locator('#trust-banner-text'), 'veraltet', 'the banner in German');
    await expectText(page.locator('#signature-1-as-of'), 'Stand ', 'the as-of marker in German');
    await screenshot(page, 'result-stale-de');
  });
} else if (phase === 'cross-tenant') {
  await withPage(async (page) => {
    await login(page, 'bob');
    const body = await page.locator('body').innerText();
    expect(body.includes('belongs to another tenant'), `tenant B's account was not refused at tenant A's login: ${body}`);
    expect(await page.locator('#upload-form').count() === 0, 'the upload form after a refused login');
    expect(await page.locator('#trust-banner').count() === 0, 'a banner on the error page');
    await screenshot(page, 'cross-tenant');
  });
} else {
  throw new Error(`unknown PHASE ${phase}`);
}
