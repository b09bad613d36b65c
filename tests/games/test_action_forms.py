"""An action's parameters are parsed by forms that are never rendered: they share their class's fields
instead of deep-copying them for every action (games.web.forms.ParametersForm), and each form still
has its own data, cleaned values and errors."""

from __future__ import annotations

from games.web import commands, forms


def test_a_parameters_form_uses_its_class_fields_as_they_are():
    form = forms.MoveForm({"version": "3", "colour": "red", "index": "0"})
    assert form.fields is forms.MoveForm.base_fields
    assert commands.NoParameters({}).fields is commands.NoParameters.base_fields
    assert form.is_valid() and form.cleaned_data["index"] == 0


def test_each_form_keeps_its_own_errors_and_values():
    bad = forms.MoveForm({"version": "٣", "colour": "mauve", "index": "4"})
    good = forms.MoveForm({"version": "7", "colour": "blue", "index": "3", "die": "total"})
    assert not bad.is_valid() and good.is_valid()
    assert set(bad.errors) == {"version", "colour", "index"}
    assert "tokens are 1 to 4" in bad.errors["index"][0]
    assert good.cleaned_data == {
        "version": 7, "seat": None, "colour": "blue", "index": 3, "die": "total", "pair": False,
    }  # fmt: skip
    again = forms.MoveForm({"version": "8", "colour": "green", "index": "1"})
    assert again.is_valid() and again.cleaned_data["version"] == 8 and not again.errors
    assert not bad.is_valid()  # unchanged by the forms parsed after it
