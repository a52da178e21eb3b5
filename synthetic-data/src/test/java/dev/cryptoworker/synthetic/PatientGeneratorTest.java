package dev.cryptoworker.synthetic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PatientGeneratorTest {
  @Test
  void sameSeedSamePatientsDifferentSeedDifferentPatients() {
    assertEquals(new PatientGenerator(1).patient(5), new PatientGenerator(1).patient(5));
    assertNotEquals(new PatientGenerator(1).patient(5), new PatientGenerator(2).patient(5));
    assertNotEquals(new PatientGenerator(1).patient(5), new PatientGenerator(1).patient(6));
  }

  @Test
  void fieldSizesMatchTheReferenceTable() {
    for (int i = 0; i < 200; i++) {
      Patient p = new PatientGenerator(3).patient(i);
      assertEquals(8, p.rowKey().length);
      assertEquals(PatientGenerator.MAIN_ID, bytes(p.value("identification", "mainId")));
      assertEquals(PatientGenerator.NAME, bytes(p.value("identification", "surname")));
      assertEquals(PatientGenerator.NAME, bytes(p.value("identification", "name")));
      assertEquals(PatientGenerator.BIRTH, bytes(p.value("identification", "birth")));
      assertEquals(PatientGenerator.NATIONALITY, bytes(p.value("identification", "nationality")));
      assertEquals(PatientGenerator.CIVIL_ID, bytes(p.value("identification", "civilId")));
      assertEquals(PatientGenerator.ADDRESS, bytes(p.value("contacts", "address")));
      assertEquals(PatientGenerator.CONTACT, bytes(p.value("contacts", "contact")));
      assertEquals(PatientGenerator.OBSERVATIONS, bytes(p.value("observations", "observations")));
      int appointments = p.cells().get("appointments").size();
      assertTrue(appointments >= 1 && appointments <= 4);
    }
  }

  @Test
  void mainIdsAreMostlyDistinct() {
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      ids.add(new PatientGenerator(4).patient(i).mainId());
    }
    assertTrue(ids.size() > 990, "mainId is a lookup key; got " + ids.size() + " distinct of 1000");
  }

  private static int bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
