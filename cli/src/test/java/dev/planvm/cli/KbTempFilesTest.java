package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A process that loads the in-process embedding model leaves nothing in the temp folder once it ends. */
@Tag("slow") // soak: the embedding model loaded in a child JVM (mvn -Pslow)
class KbTempFilesTest {

    @TempDir
    Path dir;

    @Test
    void loading_the_embedding_model_leaves_no_onnxruntime_directory_in_the_temp_folder() throws Exception {
        Path docs = Files.createDirectories(dir.resolve("docs"));
        Files.writeString(docs.resolve("tidb.md"), "# TiDB\nPlacement rules decide where replicas live.\n");
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path err = dir.resolve("err.txt");
        for (int run = 0; run < 2; run++) { // the second process loads the model again (changed document)
            Files.writeString(docs.resolve("tidb.md"), "\nRun " + run + ".\n", java.nio.file.StandardOpenOption.APPEND);
            Process index = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-Djava.io.tmpdir=" + tmp,
                            "-XX:TieredStopAtLevel=1",
                            "-XX:+UseSerialGC",
                            "-cp",
                            System.getProperty("java.class.path"),
                            Main.class.getName(),
                            "kb",
                            "index",
                            docs.toString(),
                            "--kb",
                            "notes",
                            "--root",
                            dir.resolve("kb").toString())
                    .directory(dir.toFile())
                    .redirectOutput(dir.resolve("out.txt").toFile())
                    .redirectError(err.toFile())
                    .start();
            assertThat(index.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(index.exitValue())
                    .as(Files.readString(err, StandardCharsets.UTF_8))
                    .isZero();
            assertThat(Files.readString(dir.resolve("out.txt"))).contains("1 chunks embedded");
        }
        try (Stream<Path> left = Files.list(tmp)) {
            List<String> names =
                    left.map(p -> p.getFileName().toString()).sorted().toList();
            assertThat(names).noneMatch(name -> name.startsWith("onnxruntime-java"));
            assertThat(names).noneMatch(name -> name.contains("onnxruntime"));
        }
    }
}
