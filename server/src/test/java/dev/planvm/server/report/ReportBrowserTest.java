package dev.planvm.server.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report in a real browser: headless Chromium (the Debian package) loads the page from a file, runs its
 * script, dumps the DOM and takes a screenshot. Skipped when {@code /usr/bin/chromium} is absent (CI installs it).
 */
class ReportBrowserTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    static Path dir;

    private static RunResult result;
    private static Path page;

    @BeforeAll
    static void write() throws IOException {
        result = ReportRuns.run();
        page = dir.resolve("report.html");
        Files.writeString(
                page,
                HtmlReport.render(Reports.of(result.trace(), ReportRuns.planDocument(), "report of report.json")));
    }

    @Test
    void chromium_runs_the_page_and_finds_the_graph_the_timeline_and_the_steps() throws Exception {
        assumeTrue(Files.isExecutable(CHROMIUM), "no " + CHROMIUM + " here: apt-get install chromium");
        String dom = chromium("--dump-dom", page.toUri().toString());
        assertThat(attribute(dom, "data-ready")).as("the page's script ran").isEqualTo("1");
        assertThat(attribute(dom, "data-nodes")).isEqualTo("8");
        int bars = Integer.parseInt(attribute(dom, "data-bars"));
        assertThat(bars).isEqualTo(result.steps() + result.trace().path("calls").size() + 4);
        assertThat(dom).contains("<svg id=\"flow-graph\"").contains("<svg id=\"timeline\"");
        assertThat(dom).as("the hostile output did not run").doesNotContain("<title>pwned</title>");
        assertThat(dom.split("<details class=\"step", -1).length - 1).isEqualTo(result.steps());
    }

    @Test
    void chromium_draws_what_the_plan_could_do_beside_what_it_did() throws Exception {
        assumeTrue(Files.isExecutable(CHROMIUM), "no " + CHROMIUM + " here: apt-get install chromium");
        Path withReach = dir.resolve("reach.html");
        Files.writeString(withReach, HtmlReport.render(ReachReportTest.input()));
        String dom = chromium("--dump-dom", withReach.toUri().toString());
        assertThat(attribute(dom, "data-ready")).isEqualTo("1");
        assertThat(dom).contains("<section id=\"reach\"><h2>What the plan could do</h2>");
        assertThat(dom.split("<tr class=\"effect-", -1).length - 1)
                .as("a row per tool")
                .isEqualTo(3);
        assertThat(dom)
                .contains("<td>lookup</td><td>tool</td><td>none</td><td>no</td><td>2</td><td>0, 1</td><td>2</td>");
    }

    @Test
    void chromium_takes_a_screenshot_of_the_page() throws Exception {
        assumeTrue(Files.isExecutable(CHROMIUM), "no " + CHROMIUM + " here: apt-get install chromium");
        Path png = dir.resolve("report.png");
        chromium("--screenshot=" + png, "--window-size=1200,1600", page.toUri().toString());
        byte[] image = Files.readAllBytes(png);
        assertThat(image.length).isGreaterThan(20_000);
        assertThat(new String(image, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }

    private static String chromium(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                CHROMIUM.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--no-first-run",
                "--disable-dev-shm-usage",
                "--user-data-dir=" + Files.createTempDirectory(dir, "chromium")));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "chromium", ".out");
        Process process = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("chromium did not finish in 90 s");
        }
        assertThat(process.exitValue()).as("chromium's exit code").isZero();
        return Files.readString(out);
    }

    private static String attribute(String dom, String name) {
        Matcher body = Pattern.compile("<body[^>]*\\s" + name + "=\"([^\"]*)\"").matcher(dom);
        assertThat(body.find()).as("body has " + name).isTrue();
        return body.group(1);
    }
}
