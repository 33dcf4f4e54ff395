package dev.planvm.junit.failing;

import dev.planvm.junit.PlanTesting;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

public class MixedDynamicTests {

    @TestFactory
    Stream<DynamicTest> mixed() {
        return PlanTesting.dynamicTests(Path.of("src/test/plans/mixed"));
    }

    @TestFactory
    Stream<DynamicTest> missing() {
        return PlanTesting.dynamicTests(Path.of("src/test/plans/missing"));
    }
}
