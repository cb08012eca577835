// The validator's UI in a real browser (servers/validator/browser_test.go
// runs it, one PHASE at a time, with the server's clock moved between):
//
//   current       log in through the tenant's provider, upload a PAdES
//                 document, read the verdict, download the reports (the
//                 PDF one read with pdftotext, in English and German); the
//                 form, the result and an error page in each of the four
//                 languages from the language menu, each checked with
//                 axe-core, and the choice kept on the next page; the
//                 result on a 375px-wide phone without sideways scrolling;
//   stale         the lists are stale: the banner on the form and the
//                 result, the signature's "as of" marker;
//   cross-tenant  a user of tenant B at tenant A's login is refused.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  env, withPage, screenshot, expect, expectText, checkAccessibility, expectNoHorizontalScroll,
} from '../../../../fixtures/browser/harness.mjs';

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

// save clicks a report link and returns the path of the file it
// downloads, kept beside the screenshots as name, else as the server
// names it.
async function save(page, id, name) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator(`#${id}`).click()]);
  const kept = join(env('BROWSER_ARTIFACTS'), name || file.suggestedFilename());
  await file.saveAs(kept);
  return kept;
}

// download is save, and returns the file's text.
async function download(page, id) {
  return readFile(await save(page, id), 'utf8');
}

// pdfText is what pdftotext reads in the PDF report the result page's
// link downloads, its white space collapsed.
async function pdfText(page, name) {
  const path = await save(page, 'report-pdf', name);
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { encoding: 'utf8' });
  return text.replace(/\s+/g, ' ');
}

// The four languages: the menu's ID, the result page's title and verdict,
// the document's sentence, the upload form's title, an error page's
// title.
const languages = [
  ['en', 'Validation result', 'Valid: every signature passed', 'The document is validly signed', 'Validate a signed document'],
  ['de', 'Ergebnis der Validierung', 'Gültig: alle Signaturen sind gültig', 'Das Dokument ist gültig signiert', 'Ein signiertes Dokument prüfen'],
  ['fr', 'Résultat de la validation', 'Valide : toutes les signatures sont valides', 'Le document est valablement signé', 'Valider un document signé'],
  ['it', 'Risultato della convalida', 'Valido: tutte le firme sono valide', 'Il documento è firmato validamente', 'Convalidare un documento firmato'],
];

if (phase === 'current') {
  await withPage(async (page) => {
    await login(page, 'alice');
    await expectText(page.locator('#page-title'), 'Validate a signed document', 'the upload form');
    expect(await page.locator('#trust-banner').count() === 0, 'a banner while the lists are current');
    await screenshot(page, 'upload');
    // The form in each language, checked by axe-core.
    for (const [lang, , , , form] of languages) {
      await page.locator(`#language-${lang}`).click();
      await expectText(page.locator('#page-title'), form, `the upload form in ${lang}`);
      await checkAccessibility(page, `the upload form in ${lang}`);
    }
    await page.locator('#language-en').click();

    await upload(page);
    await expectText(page.locator('#page-title'), 'Validation result', 'the result page');
    await expectText(page.locator('#verdict'), 'Valid: every signature passed', 'the verdict');
    await expectText(page.locator('#signature-1-indication'), 'Passed', 'the indication');
    await expectText(page.locator('#signature-1-format'), 'PAdES_BASELINE_T', 'the format');
    await expectText(page.locator('#trust-heading'), 'Trust data at validation', 'the trust row');
    expect(await page.locator('#trust-banner').count() === 0, 'a banner while the lists are current');
    // Who signed, when and what, and the chain to its anchor.
    const signer = (await page.locator('#signature-1-signed-by').innerText()).trim();
    expect(signer !== '' && !signer.startsWith('Unknown'), `the signer is not named: ${JSON.stringify(signer)}`);
    await expectText(page.locator('#overview'), signer, 'the overview names the signer');
    await expectText(page.locator('#signature-1-scope'), 'The whole PDF document', 'the scope');
    await expectText(page.locator('#signature-1-chain'), 'Trust anchor', 'the chain ends at an anchor');
    await screenshot(page, 'result');

    const detailed = await download(page, 'report-detailed');
    expect(detailed.includes('urn:svc-dss:validation:detailed-report:1'), 'the detailed report lacks its namespace');
    const etsi = await download(page, 'report-etsi');
    expect(etsi.includes('http://uri.etsi.org/19102/v1.4.1#'), 'the ETSI report lacks its namespace');
    expect(etsi.includes('urn:etsi:019102:mainindication:total-passed'), 'the ETSI report does not say total-passed');
    const pdf = await pdfText(page, 'report-en.pdf');
    for (const want of [signer, 'Signature validation report', 'TOTAL_PASSED', 'The document is validly signed']) {
      expect(pdf.includes(want), `the PDF report lacks ${JSON.stringify(want)}: ${pdf.slice(0, 2000)}`);
    }

    // The language menu: the same result in each language, checked by
    // axe-core; the PDF report in German.
    for (const [lang, title, verdict, sentence] of languages) {
      await page.locator(`#language-${lang}`).click();
      await expectText(page.locator('#page-title'), title, `the result page in ${lang}`);
      await expectText(page.locator('#verdict'), verdict, `the verdict in ${lang}`);
      await expectText(page.locator('#document-summary'), sentence, `the document's sentence in ${lang}`);
      expect(await page.locator('html').getAttribute('lang') === lang, `html lang is not ${lang}`);
      await checkAccessibility(page, `the result page in ${lang}`);
      await screenshot(page, `result-${lang}`);
      if (lang === 'de') {
        const de = await pdfText(page, 'report-de.pdf');
        for (const want of [signer, 'Signaturvalidierungsbericht', 'Signiert von', 'TOTAL_PASSED', 'Das Dokument ist gültig signiert']) {
          expect(de.includes(want), `the German PDF report lacks ${JSON.stringify(want)}: ${de.slice(0, 2000)}`);
        }
      }
    }
    // An error page in each language, checked by axe-core.
    for (const [lang] of languages) {
      const res = await page.goto(`${base}/validate/no-such-page?lang=${lang}`);
      expect(res.status() === 404, `the missing page answers ${res.status()}, not 404`);
      expect(await page.locator('html').getAttribute('lang') === lang, `the error page's html lang is not ${lang}`);
      await checkAccessibility(page, `the error page in ${lang}`);
      await screenshot(page, `error-${lang}`);
    }
    // Remembered on the next page.
    await page.goto(`${base}/validate?tenantId=${tenant}&lang=it`);
    await expectText(page.locator('#page-title'), 'Convalidare un documento firmato', 'the upload form in Italian');
    await screenshot(page, 'upload-it');
    await page.locator('#language-en').click();
    await expectText(page.locator('#page-title'), 'Validate a signed document', 'the upload form in English again');
  });
  // The same result on a phone, 375px wide: nothing scrolls sideways, in
  // any language.
  await withPage(async (page) => {
    await login(page, 'alice');
    await expectNoHorizontalScroll(page, 'the upload form on a phone');
    await screenshot(page, 'upload-phone');
    await upload(page);
    await expectText(page.locator('#verdict'), 'Valid: every signature passed', 'the verdict on a phone');
    for (const [lang] of languages) {
      await Promise.all([page.waitForURL(new RegExp(`lang=${lang}`)), page.locator(`#language-${lang}`).click()]);
      await expectNoHorizontalScroll(page, `the result page on a phone in ${lang}`);
      await screenshot(page, `result-phone-${lang}`);
    }
  }, { viewport: { width: 375, height: 812 } });
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
